export default definePageConfig({ navigationBarTitleText: 'Categories' });
