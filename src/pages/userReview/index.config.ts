export default definePageConfig({ navigationBarTitleText: 'Reviews', onReachBottomDistance: 200 });
