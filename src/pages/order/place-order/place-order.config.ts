export default definePageConfig({ navigationBarTitleText: 'Place order' });
