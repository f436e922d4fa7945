export default function NotificationPreferencesPage() {
  return <p>NotificationPreferencesPage is being built.</p>
}
