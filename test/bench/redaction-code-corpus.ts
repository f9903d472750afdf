/**
 * A code-heavy conversation for the redaction benchmark: a user and an assistant building web apps
 * (Flask, Express, SQL, env files, YAML, shell), the shapes that name secrets without holding one.
 * Every turn is secret-free by construction: values are identifiers, calls, types, placeholders,
 * references to the environment or prose. Each template is instantiated once per resource below,
 * so the corpus is several hundred distinct turns.
 */

/** [resource, its plural, the table] — varies names so no two turns are the same text. */
const RESOURCES: ReadonlyArray<[string, string, string]> = [
  ['user', 'users', 'users'],
  ['admin', 'admins', 'admins'],
  ['customer', 'customers', 'customers'],
  ['member', 'members', 'members'],
  ['author', 'authors', 'authors'],
  ['tenant', 'tenants', 'tenants'],
  ['account', 'accounts', 'accounts'],
  ['employee', 'employees', 'staff'],
  ['student', 'students', 'students'],
  ['vendor', 'vendors', 'vendors'],
];

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

type Template = (r: string, rs: string, table: string) => string;

const TEMPLATES: readonly Template[] = [
  (r) => `user: I'm building a small Flask app where a ${r} can sign up and log in. How should I store the password?`,
  (r) =>
    `assistant: Never store it in plain text. Hash it with werkzeug:\n\n\`\`\`python\nfrom werkzeug.security import generate_password_hash, check_password_hash\n\nclass ${cap(r)}(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n    email = db.Column(db.String(120), unique=True, nullable=False)\n    password = db.Column(db.String(128), nullable=False)\n\n    def set_password(self, password):\n        self.password_hash = generate_password_hash(password)\n\n    def check_password(self, password):\n        return check_password_hash(self.password_hash, password)\n\`\`\``,
  (r) =>
    `assistant: Here is the login route:\n\n\`\`\`python\n@app.route('/${r}/login', methods=['POST'])\ndef login():\n    email = request.form['email']\n    password = request.form['password']\n    ${r} = ${cap(r)}.query.filter_by(email=email).first()\n    if not ${r} or not ${r}.check_password(password):\n        return jsonify({'error': 'invalid credentials'}), 401\n    token = create_access_token(identity=${r}.id)\n    return jsonify({'token': token})\n\`\`\``,
  (r) =>
    `assistant: **Password Hashing**: use bcrypt or argon2 for the ${r} passwords, never MD5 or SHA-1.\n**Token Expiry**: keep access tokens short-lived (15 minutes) and refresh them.\n**Secret Management**: read secrets from the environment, not from the repository.`,
  (r) => `user: The ${r} login keeps failing with "KeyError: 'password'" — what does that mean?`,
  (r) =>
    `assistant: The form has no field named password. Check the template: \`<input type="password" name="password" id="${r}-password">\` and use \`request.form.get('password')\` so a missing field gives None instead of an exception.`,
  (r) =>
    `assistant: In Express the ${r} route looks like this:\n\n\`\`\`js\nrouter.post('/${r}s/login', async (req, res) => {\n  const { email, password } = req.body;\n  const ${r} = await ${cap(r)}.findOne({ email });\n  if (!${r} || !(await bcrypt.compare(password, ${r}.passwordHash))) {\n    return res.status(401).json({ error: 'Invalid credentials' });\n  }\n  const token = jwt.sign({ id: ${r}._id }, process.env.JWT_SECRET, { expiresIn: '1h' });\n  res.json({ token });\n});\n\`\`\``,
  (r) =>
    `assistant: The Mongoose schema for ${r}:\n\n\`\`\`js\nconst ${r}Schema = new mongoose.Schema({\n  email: { type: String, required: true, unique: true },\n  password: { type: String, required: true, minlength: 8 },\n  resetToken: String,\n  resetTokenExpires: Date,\n});\n${r}Schema.pre('save', async function () {\n  if (this.isModified('password')) this.password = await bcrypt.hash(this.password, 12);\n});\n\`\`\``,
  (r, rs) =>
    `assistant: In TypeScript, type the request body:\n\n\`\`\`ts\ninterface ${cap(r)}Login {\n  email: string;\n  password: string;\n  rememberMe?: boolean;\n}\n\ninterface AuthResponse {\n  token: string;\n  refreshToken: string;\n  expiresIn: number;\n}\n\`\`\`\nThen \`app.post('/api/${rs}/login', (req: Request<{}, AuthResponse, ${cap(r)}Login>, res) => …)\`.`,
  (r, rs, table) =>
    `assistant: The SQL for the ${rs} table:\n\n\`\`\`sql\nCREATE TABLE ${table} (\n  id SERIAL PRIMARY KEY,\n  email VARCHAR(255) UNIQUE NOT NULL,\n  password_hash VARCHAR(255) NOT NULL,\n  api_token VARCHAR(64),\n  created_at TIMESTAMP DEFAULT NOW()\n);\n\`\`\``,
  (r, rs, table) =>
    `assistant: Always use parameters: \`cursor.execute("UPDATE ${table} SET password = %s WHERE id = %s", (hashed, ${r}_id))\` and in Node \`db.query('INSERT INTO ${table} (email, password) VALUES ($1, $2)', [email, hash])\`.`,
  (r, rs) =>
    `assistant: Put the configuration in a \`.env\` file that is not committed:\n\n\`\`\`\nFLASK_APP=${rs}.py\nFLASK_ENV=development\nDATABASE_URL=\${DATABASE_URL}\nSECRET_KEY=\${SECRET_KEY}\nJWT_SECRET=<your-jwt-secret>\nMAIL_PASSWORD=\nAPI_KEY=your-api-key-here\n\`\`\`\nand load it with python-dotenv.`,
  (r) =>
    `assistant: Read the values in config.py:\n\n\`\`\`python\nimport os\n\nclass Config:\n    SECRET_KEY = os.environ.get('SECRET_KEY')\n    SQLALCHEMY_DATABASE_URI = os.environ["DATABASE_URL"]\n    JWT_SECRET_KEY = os.getenv("JWT_SECRET_KEY", "dev")\n    ${r.toUpperCase()}_API_KEY = os.environ.get("${r.toUpperCase()}_API_KEY")\n    MAIL_PASSWORD = os.environ.get('MAIL_PASSWORD')\n\`\`\``,
  (r, rs) =>
    `assistant: The docker-compose file for the ${rs} service:\n\n\`\`\`yaml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD}\n      POSTGRES_DB: ${rs}\n  web:\n    build: .\n    env_file: .env\n    environment:\n      SECRET_KEY: \${SECRET_KEY}\n      DATABASE_URL: \${DATABASE_URL}\n\`\`\``,
  (r, rs) =>
    `assistant: A GitHub Actions step for the ${rs} tests:\n\n\`\`\`yaml\n- name: Run tests\n  env:\n    DB_PASSWORD: \${{ secrets.DB_PASSWORD }}\n    API_TOKEN: \${{ secrets.API_TOKEN }}\n  run: pytest -q tests/test_${rs}.py\n\`\`\``,
  (r, rs) =>
    `assistant: In Kubernetes, reference a Secret rather than writing the value:\n\n\`\`\`yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: ${rs}-db\n        key: password\n\`\`\``,
  (r, rs) =>
    `assistant: From the shell:\n\n\`\`\`bash\nexport DB_PASSWORD="$(cat /run/secrets/db_password)"\nexport API_KEY=$(vault kv get -field=api_key secret/${rs})\npsql -h localhost -U app -d ${rs} -W\n\`\`\`\n\`-W\` makes psql prompt for the password.`,
  (r) => `user: Should the ${r} token go in localStorage or a cookie?`,
  (r) =>
    `assistant: An httpOnly cookie is safer against XSS: \`res.cookie('token', token, { httpOnly: true, secure: true, sameSite: 'strict' })\`. For the ${r} API you can still send \`Authorization: Bearer <token>\` from a mobile client.`,
  (r) =>
    `assistant: The axios call from React:\n\n\`\`\`js\nconst res = await axios.get('/api/${r}/profile', {\n  headers: { Authorization: \`Bearer \${token}\` },\n});\nlocalStorage.setItem('token', res.data.token);\n\`\`\``,
  (r) =>
    `assistant: Middleware that checks the token:\n\n\`\`\`js\nfunction auth(req, res, next) {\n  const token = req.headers.authorization?.split(' ')[1];\n  if (!token) return res.sendStatus(401);\n  try {\n    req.${r} = jwt.verify(token, process.env.JWT_SECRET);\n    next();\n  } catch (err) {\n    res.status(403).json({ message: 'Token is not valid' });\n  }\n}\n\`\`\``,
  (r) =>
    `assistant: For the password reset flow: generate a token with \`secrets.token_urlsafe(32)\`, store its hash on the ${r}, email a link \`/reset?token=<token>\`, and on submit compare \`hashlib.sha256(token.encode()).hexdigest()\` with the stored hash.`,
  (r) =>
    `user: My ${r} form validation: the password must have 8 characters, a digit and a symbol. Is this regex right? \`^(?=.*\\d)(?=.*[!@#$%^&*]).{8,}$\``,
  (r) =>
    `assistant: It works, but also check length on the server: \`if len(password) < 8: raise ValidationError("Password is too short")\`. The message "Password must contain a number" is clearer for the ${r}.`,
  (r) =>
    `assistant: A WTForms form:\n\n\`\`\`python\nclass ${cap(r)}RegisterForm(FlaskForm):\n    email = StringField('Email', validators=[DataRequired(), Email()])\n    password = PasswordField('Password', validators=[DataRequired(), Length(min=8)])\n    confirm_password = PasswordField('Confirm Password', validators=[EqualTo('password')])\n    submit = SubmitField('Sign Up')\n\`\`\``,
  (r) =>
    `assistant: The Jinja template:\n\n\`\`\`html\n<form method="post">\n  {{ form.hidden_tag() }}\n  <label for="password">Password:</label>\n  {{ form.password(class="form-control", placeholder="Password") }}\n  <input type="hidden" name="csrf_token" value="{{ csrf_token() }}">\n</form>\n\`\`\`\nThe ${r} sees a normal password box.`,
  (r) =>
    `assistant: Pydantic model for the ${r} API:\n\n\`\`\`python\nclass ${cap(r)}Create(BaseModel):\n    email: EmailStr\n    password: str = Field(min_length=8)\n    api_key: Optional[str] = None\n\nclass Token(BaseModel):\n    access_token: str\n    token_type: str = "bearer"\n\`\`\``,
  (r) =>
    `assistant: With FastAPI:\n\n\`\`\`python\n@app.post("/token", response_model=Token)\nasync def login(form_data: OAuth2PasswordRequestForm = Depends()):\n    ${r} = authenticate(form_data.username, form_data.password)\n    if not ${r}:\n        raise HTTPException(status_code=401, detail="Incorrect username or password")\n    access_token = create_access_token(data={"sub": ${r}.email})\n    return {"access_token": access_token, "token_type": "bearer"}\n\`\`\``,
  (r) => `user: Why does \`if not password:\` in my ${r} signup view never trigger when the field is empty?`,
  (r) =>
    `assistant: Because the form sends an empty string and you read \`password = request.json.get("password", "")\` — that is falsy, so it should trigger. Print \`repr(password)\` to check; maybe the ${r} client sends whitespace.`,
  (r) =>
    `assistant: Session config for the ${r} app:\n\n\`\`\`js\napp.use(session({\n  secret: process.env.SESSION_SECRET,\n  resave: false,\n  saveUninitialized: false,\n  cookie: { secure: true, maxAge: 3600000 },\n}));\n\`\`\``,
  (r) =>
    `assistant: The Go handler:\n\n\`\`\`go\nfunc Login${cap(r)}(w http.ResponseWriter, r *http.Request) {\n    password := r.FormValue("password")\n    hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)\n    if err != nil {\n        http.Error(w, "could not hash password", http.StatusInternalServerError)\n        return\n    }\n    token := uuid.NewString()\n    json.NewEncoder(w).Encode(map[string]string{"token": token})\n}\n\`\`\``,
  (r) =>
    `assistant: Test it with curl:\n\n\`\`\`bash\ncurl -X POST http://localhost:5000/${r}/login \\\n  -H "Content-Type: application/json" \\\n  -d '{"email": "<email>", "password": "<password>"}'\ncurl -H "Authorization: Bearer $TOKEN" http://localhost:5000/${r}/me\n\`\`\``,
  (r) =>
    `assistant: In the pytest fixture, use a throwaway ${r}:\n\n\`\`\`python\n@pytest.fixture\ndef ${r}(db):\n    u = ${cap(r)}(email="a@test", password=generate_password_hash("test"))\n    db.session.add(u)\n    return u\n\ndef test_login(client, ${r}):\n    resp = client.post("/login", data={"email": ${r}.email, "password": "test"})\n    assert resp.status_code == 200\n    assert "token" in resp.get_json()\n\`\`\``,
  (r) => `user: The ${r} API returns "Token has expired" after an hour. How do I refresh it?`,
  (r) =>
    `assistant: Issue a refresh token alongside the access token: \`refresh_token = create_refresh_token(identity=${r}.id)\`; the client calls \`/refresh\` with \`Authorization: Bearer <refresh_token>\` and gets a new access token. Store refresh tokens server-side so you can revoke them.`,
  (r) =>
    `assistant: Settings for Django:\n\n\`\`\`python\nSECRET_KEY = env("DJANGO_SECRET_KEY")\nDATABASES = {\n    "default": {\n        "ENGINE": "django.db.backends.postgresql",\n        "NAME": "${r}_db",\n        "USER": env("DB_USER"),\n        "PASSWORD": env("DB_PASSWORD"),\n        "HOST": "localhost",\n    }\n}\nAUTH_PASSWORD_VALIDATORS = [{"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"}]\n\`\`\``,
  (r) =>
    `assistant: The API key for the ${r} integration should be passed as a header, e.g. \`headers = {"X-API-Key": api_key}\` where \`api_key = settings.PAYMENTS_API_KEY\`. Don't log the headers.`,
  (r) =>
    `assistant: In the React login form:\n\n\`\`\`jsx\nconst [password, setPassword] = useState('');\n<input\n  type="password"\n  value={password}\n  onChange={(e) => setPassword(e.target.value)}\n  placeholder="Enter your password"\n/>\n\`\`\`\nThe ${r} password never leaves the component until submit.`,
  (r) =>
    `assistant: Summary of the ${r} auth design:\n1. Passwords: hashed with bcrypt (cost 12).\n2. Tokens: JWT, 15-minute access token, 7-day refresh token.\n3. Secrets: loaded from environment variables; \`.env\` is in \`.gitignore\`.\n4. API keys: stored hashed, shown once at creation.`,
  (r) => `user: Thanks! The ${r} login works now. Next I want rate limiting on the password endpoint.`,
  (r) =>
    `assistant: Use flask-limiter: \`@limiter.limit("5 per minute")\` on the login view, keyed by IP and ${r} email. Return 429 with \`{"error": "too many attempts"}\` and don't reveal whether the password or the email was wrong.`,
  (r) =>
    `assistant: The nginx config that proxies the ${r} API:\n\n\`\`\`nginx\nlocation /api/ {\n    proxy_pass http://127.0.0.1:5000;\n    proxy_set_header Authorization $http_authorization;\n    proxy_set_header X-Real-IP $remote_addr;\n}\n\`\`\``,
  (r) =>
    `assistant: Sequelize model:\n\n\`\`\`js\nconst ${cap(r)} = sequelize.define('${cap(r)}', {\n  email: { type: DataTypes.STRING, allowNull: false },\n  password: { type: DataTypes.STRING, allowNull: false },\n  apiKey: DataTypes.STRING,\n});\n${cap(r)}.beforeCreate(async (u) => { u.password = await bcrypt.hash(u.password, 10); });\n\`\`\``,
  (r) =>
    `assistant: The Prisma schema:\n\n\`\`\`prisma\nmodel ${cap(r)} {\n  id        Int      @id @default(autoincrement())\n  email     String   @unique\n  password  String\n  tokens    Token[]\n}\n\`\`\`\nand \`const ${r} = await prisma.${r}.create({ data: { email, password: hashed } })\`.`,
  (r) => `user: what's the difference between a secret key and an API key for the ${r} service?`,
  (r) =>
    `assistant: The secret key signs things (sessions, JWTs) and never leaves the server; an API key identifies a client to a service and is sent with each request. Rotate both; for the ${r} service keep them in a secrets manager.`,
  (r) =>
    `assistant: Config as TOML:\n\n\`\`\`toml\n[database]\nhost = "localhost"\nuser = "app"\npassword = "\${DB_PASSWORD}"\n\n[auth]\ntoken_ttl = 900\nsecret_key_file = "/run/secrets/${r}_secret"\n\`\`\``,
  (r) =>
    `assistant: Spring Boot application.yml for ${r}:\n\n\`\`\`yaml\nspring:\n  datasource:\n    url: jdbc:postgresql://localhost:5432/${r}\n    username: \${DB_USER}\n    password: \${DB_PASSWORD}\njwt:\n  secret: \${JWT_SECRET}\n  expiration: 86400\n\`\`\``,
  (r) =>
    `assistant: Log lines like \`INFO ${r} login ok user_id=42 token=*** ip=10.0.0.7\` are fine; make sure the formatter masks \`password=***\` before it writes.`,
  (r) =>
    `assistant: PHP version:\n\n\`\`\`php\n$password = $_POST['password'];\n$hash = password_hash($password, PASSWORD_DEFAULT);\nif (password_verify($password, $row['password'])) {\n    $_SESSION['${r}_id'] = $row['id'];\n}\n\`\`\``,
  (r) =>
    `assistant: Ruby on Rails: \`has_secure_password\` on the ${cap(r)} model gives you \`password\` and \`password_confirmation\`; \`${r}.authenticate(params[:password])\` returns the ${r} or false.`,
  (r) =>
    `assistant: Java:\n\n\`\`\`java\nString password = request.getParameter("password");\nString hashed = passwordEncoder.encode(password);\n${cap(r)} ${r} = new ${cap(r)}(email, hashed);\nString token = jwtUtil.generateToken(${r}.getEmail());\n\`\`\``,
  (r) => `user: my ${r} password reset email isn't sending. The SMTP password is set in the env, I checked.`,
  (r) =>
    `assistant: Check \`MAIL_USE_TLS=True\`, \`MAIL_PORT=587\` and that \`MAIL_PASSWORD\` is an app password, not the account password. Run \`flask shell\` and \`print(bool(app.config['MAIL_PASSWORD']))\` to see it is loaded for the ${r} app.`,
  (r) =>
    `assistant: A unit test for the ${r} token helper:\n\n\`\`\`js\ntest('rejects an expired token', () => {\n  const token = sign({ id: 1 }, 'test-secret', { expiresIn: -1 });\n  expect(() => verify(token, 'test-secret')).toThrow('jwt expired');\n});\n\`\`\``,
  (r) =>
    `assistant: The OpenAPI spec:\n\n\`\`\`yaml\ncomponents:\n  securitySchemes:\n    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT\n    apiKey:\n      type: apiKey\n      in: header\n      name: X-API-Key\npaths:\n  /${r}/login:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              properties:\n                password:\n                  type: string\n                  format: password\n\`\`\``,
  (r) =>
    `assistant: Rust with axum:\n\n\`\`\`rust\n#[derive(Deserialize)]\nstruct ${cap(r)}Login {\n    email: String,\n    password: String,\n}\n\nlet token = encode(&Header::default(), &claims, &EncodingKey::from_secret(secret.as_ref()))?;\n\`\`\``,
  (r) =>
    `assistant: Redis for the ${r} sessions: \`redis.set(f"session:{token}", ${r}.id, ex=3600)\` and \`REDIS_URL=redis://localhost:6379/0\` in the env (no password locally).`,
  (r) =>
    `assistant: Password field in the admin list view: \`exclude = ('password', 'api_token')\` keeps them out of the ${r} page; \`readonly_fields = ('last_login',)\`.`,
  (r) => `user: Is \`hashlib.md5(password.encode()).hexdigest()\` ok for ${r} passwords?`,
  (r) =>
    `assistant: No: MD5 is fast and unsalted. Use \`bcrypt.hashpw(password.encode(), bcrypt.gensalt())\` and \`bcrypt.checkpw(password.encode(), stored)\` for the ${r} table.`,
];

/** The conversation, one turn per template and resource (several hundred turns). */
export function codeConversation(): string[] {
  return RESOURCES.flatMap(([r, rs, table]) => TEMPLATES.map((t) => t(r, rs, table)));
}
