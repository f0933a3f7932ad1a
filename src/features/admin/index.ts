export { brandTitle, startSiteBranding, useSiteSettings, DEFAULT_SITE_TITLE } from './site-branding.ts'
