export default definePageConfig({ navigationBarTitleText: 'Category', onReachBottomDistance: 200 });
