export { SellerObject } from './seller.object';
export { ShopObject } from './shop.object';
export { AccountResolver, CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, reauthenticated } from './account.resolver';
export { AdminAccountResolver } from './admin-account.resolver';
export { SellerPreviousShopResolver, SellerShopResolver } from './seller-shop.resolver';
export { SellerAdminResolver, ShopAdminResolver } from './shop-admin.resolver';
export { ShopResolver } from './shop.resolver';
