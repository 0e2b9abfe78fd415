export default definePageConfig({ navigationBarTitleText: 'Support desk' });
