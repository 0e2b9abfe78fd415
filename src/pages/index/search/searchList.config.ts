export default definePageConfig({ navigationBarTitleText: 'Search results', onReachBottomDistance: 200 });
