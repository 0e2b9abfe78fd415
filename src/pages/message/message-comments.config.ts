export default definePageConfig({ navigationBarTitleText: 'Comments', onReachBottomDistance: 200 });
