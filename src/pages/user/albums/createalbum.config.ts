export default definePageConfig({ navigationBarTitleText: 'New album' });
