/** The try-on page (a subpackage of its own): `id` and `color_id` name the frame to try first. */
export const TRYON_PAGE = '/pages/tryon/tryon';
