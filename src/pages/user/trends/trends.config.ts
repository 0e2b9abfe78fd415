export default definePageConfig({ navigationBarTitleText: 'Articles', onReachBottomDistance: 200 });
