export const EDIT_LIST_PAGE = '/pages/admin/edit-list';
export const PRODUCT_EDIT_PAGE = '/pages/admin/product-edit';
export const ARTICLE_EDIT_PAGE = '/pages/admin/article-edit';
