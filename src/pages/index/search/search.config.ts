export default definePageConfig({ navigationBarTitleText: 'Search' });
