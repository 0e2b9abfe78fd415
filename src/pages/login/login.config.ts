export default definePageConfig({ navigationBarTitleText: 'Sign in' });
