export default definePageConfig({ navigationBarTitleText: 'Support agents' });
