export default definePageConfig({ navigationBarTitleText: 'Change password' });
