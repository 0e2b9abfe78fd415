export default definePageConfig({ navigationBarTitleText: 'Find people', onReachBottomDistance: 200 });
