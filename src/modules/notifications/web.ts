export { MAIL_VIEWER_PATH, mailViewerOn, mailViewerRouter } from './mail-viewer-page';
export { NotificationsResolver } from './notifications.resolver';
export { MailOutboxEntryObject } from './mail-outbox.object';
