export default definePageConfig({ navigationBarTitleText: 'Choose a location' });
