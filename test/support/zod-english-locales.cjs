// zod's locale namespace in the tests, as in the deployed bundle: English alone (resolver.cjs says why).
module.exports = { en: require('zod/v4/locales/en.cjs').default };
