export default definePageConfig({ navigationBarTitleText: 'Edit profile' });
