export default definePageConfig({ navigationBarTitleText: 'Tag', onReachBottomDistance: 200 });
