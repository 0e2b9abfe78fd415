export default definePageConfig({ navigationBarTitleText: 'Albums' });
