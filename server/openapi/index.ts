export { apiComponents } from './components'
