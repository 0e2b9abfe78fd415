export default definePageConfig({ navigationBarTitleText: 'My orders', onReachBottomDistance: 200 });
