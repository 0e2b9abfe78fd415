export default definePageConfig({ navigationBarTitleText: 'My profile' });
