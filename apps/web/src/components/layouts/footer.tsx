import { APP_NAME } from '@/config/app'

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white px-6 py-4 text-center text-sm text-slate-600">
      {`© ${new Date().getFullYear()} ${APP_NAME}. All rights reserved.`}
    </footer>
  )
}
