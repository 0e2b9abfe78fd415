export default definePageConfig({ navigationBarTitleText: 'Collected photos' });
