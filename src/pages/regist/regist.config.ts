export default definePageConfig({ navigationBarTitleText: 'Create account' });
