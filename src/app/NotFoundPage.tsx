import { useLocation } from 'react-router-dom'
import { NotFound } from '../ui/NotFound.tsx'

export default function NotFoundPage() {
  const { pathname } = useLocation()
  return <NotFound pathname={pathname} logMissingRoute />
}
