export default definePageConfig({ navigationBarTitleText: 'Profile photo' });
