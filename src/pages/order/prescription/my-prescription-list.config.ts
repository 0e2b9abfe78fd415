export default definePageConfig({ navigationBarTitleText: 'My prescriptions' });
