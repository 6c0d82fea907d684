export { dashboardExportsRouter } from './dashboard-exports-page';
export { dashboardRouter } from './dashboard-page';
