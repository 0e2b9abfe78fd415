export default definePageConfig({ navigationBarTitleText: 'Edit glasses' });
