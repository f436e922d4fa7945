export default function NotificationBell() {
  return <p>NotificationBell is being built.</p>
}
