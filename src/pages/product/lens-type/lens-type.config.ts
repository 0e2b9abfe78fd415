export default definePageConfig({ navigationBarTitleText: 'Choose lens type' });
