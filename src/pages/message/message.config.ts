export default definePageConfig({ navigationBarTitleText: 'Messages' });
