export default definePageConfig({ navigationBarTitleText: 'My info' });
