/** The product name shown in the shell, the login screen and the footer. */
export const APP_NAME = 'Dispatch Portal'
