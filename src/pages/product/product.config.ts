export default definePageConfig({ navigationBarTitleText: 'Frame' });
