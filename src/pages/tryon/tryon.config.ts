export default definePageConfig({ navigationBarTitleText: 'Try on' });
