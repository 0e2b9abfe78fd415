export default definePageConfig({ navigationBarTitleText: 'Choose your lenses' });
