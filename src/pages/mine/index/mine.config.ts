export default definePageConfig({ navigationBarTitleText: 'mine' });
