export default definePageConfig({ navigationBarTitleText: 'Chat' });
