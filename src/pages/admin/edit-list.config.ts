export default definePageConfig({ navigationBarTitleText: 'Admin', onReachBottomDistance: 200 });
