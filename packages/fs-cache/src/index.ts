export { assertPath, invalidArgument } from './validate.js'
