export default definePageConfig({ navigationBarTitleText: '内容编辑' });
