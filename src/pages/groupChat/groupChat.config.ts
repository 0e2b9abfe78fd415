export default definePageConfig({ navigationBarTitleText: 'Group chat' });
