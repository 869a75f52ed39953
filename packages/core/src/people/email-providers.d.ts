/** `email-providers` ships no types: its default export is the list of free-mail domains (lower case). */
declare module 'email-providers' {
  const domains: readonly string[];
  export default domains;
}
