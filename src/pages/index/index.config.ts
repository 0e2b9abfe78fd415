export default definePageConfig({ navigationBarTitleText: 'Lensmate' });
