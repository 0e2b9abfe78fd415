export default definePageConfig({ navigationBarTitleText: 'Edit article' });
