export default definePageConfig({ navigationBarTitleText: 'Notifications' });
