// SMTP settings and transport for the services that send mail (imported as
// @marketplace/service-kit/mail, so services that never mail do not load nodemailer).
export { MailConfigSchema, type MailConfig } from './mail-config'
export { createMailTransport, escapeHtml, appLink, type MailTransport } from './mail-transport'
