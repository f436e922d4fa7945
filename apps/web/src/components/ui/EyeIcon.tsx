// The eye now lives with the app's other icons; this path stays for the forms importing it.
export { EyeIcon } from '@/components/icons/EyeIcon'
