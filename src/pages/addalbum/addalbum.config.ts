export default definePageConfig({ navigationBarTitleText: 'Add photos' });
