# Тексты страницы и сервера по-русски. Те же сообщения, что в en.ftl. Нотация (a1-h8, c3-d4,
# e5:c3) не переводится.

## Рамка страницы: заголовок, настройки, несуществующие страницы

site-name = Башни
nav-lobby = Лобби
nav-tournaments = Турниры
nav-new-game = Новая партия
nav-study = Доска для анализа
nav-leaderboard = Рейтинг
needs-javascript = Для этой страницы нужен JavaScript.
page-not-found = Страница не найдена
page-not-found-back = На главную страницу

settings = Настройки
settings-page-colours = Цвета страницы
settings-scheme-system = Как в системе
settings-scheme-light = Светлые
settings-scheme-dark = Тёмные
settings-board-colours = Цвета доски
settings-board-wood = Дерево
settings-board-green = Зелёная
settings-board-grey = Серая
settings-board-size = Размер доски
settings-sounds = Звуки
settings-language = Язык

## Главная страница

home-new-game = Новая партия
home-play = Играть
home-mode-engine = С компьютером
home-mode-friend = С другом (по ссылке-приглашению)
home-mode-local = Вдвоём за одним экраном
home-game = Игра
home-variant-bashni = Башни (столбовые шашки)
home-variant-russian = Русские шашки
home-level = Уровень компьютера
home-colour = Ваш цвет
home-colour-white = Белые
home-colour-black = Чёрные
home-colour-random = Случайно
home-clock = Часы
home-correspondence = По переписке (дни на ход)
home-days =
    { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }
home-days-per-move = Дней на ход
home-days-per-move-hint = Столько может длиться каждый ход. Неиспользованное время не переносится.
home-your-name = Ваше имя
home-first-player-name = Имя первого игрока (белые)
home-second-player = Второй игрок
home-second-player-name = Имя второго игрока
home-account-name = Имя вашей учётной записи.
home-rated = На рейтинг
home-start = Начать партию
home-pdn-title = Открыть записи партий (PDN)
home-pdn-file = Файл PDN
home-pdn-paste = Или вставьте сюда текст PDN
home-pdn-upload = Загрузить
home-pdn-nothing = Выберите файл или вставьте текст PDN.
home-pdn-none-found = В тексте не найдено ни одной партии.
home-pdn-game = Партия { $number }
home-pdn-game-error = Партия { $number }: { $error }
home-pdn-unreadable = не читается
home-your-games = Ваши партии
home-your-games-none = Пока нет.
home-live-games = Идут сейчас
home-live-games-none = Сейчас никто не играет.
home-finished-games = Сыгранные партии
home-finished-games-none = Партий пока нет.
home-records = Записи партий
home-records-none = Записей пока не загружали.
home-loading = Загрузка…
home-more = Ещё
home-lobby-title = Сыграть с человеком
home-lobby-text = Найдите соперника в лобби: примите вызов или сделайте свой.
home-lobby-link = В лобби
home-study-title = Анализ
home-study-text = Расставьте любую позицию, стройте башни, смотрите варианты и спрашивайте компьютер.
home-study-link = Открыть доску для анализа

## Партия в списке

game-item-white = Белые
game-item-black = Чёрные
game-item-in-play = идёт
game-item-aborted = прервана
game-item-moves =
    { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }

## Lobby, tournaments, ratings, players (lobby.js, seeks.js, tournaments.js, ratings.js, rating-chart.js, player.js, your-turn.js, account-seat.js)

lobby-title = Лобби – Башни
lobby-connecting = Подключение…
lobby-connection-lost = Связь потеряна. Подключаемся снова… Ваши вызовы сняты.
lobby-connection-lost-retry = Связь потеряна. Попробуйте ещё раз.
lobby-no-answer = Сервер не ответил.
lobby-not-connected = Нет связи. Подождите немного и попробуйте ещё раз.
lobby-press-play = Нажмите «Играть», чтобы принять вызов, или бросьте свой.
# $clocks: контроль времени вызовов игрока, «5+3, 10+5».
lobby-waiting = Ждём соперника ({ $clocks }). Не закрывайте эту страницу.
lobby-paired = Партия готова. Вы играете { $colour ->
        [white] белыми
        [black] чёрными
       *[other] { $colour }
    }.
lobby-col-player = Игрок
lobby-col-game = Игра
lobby-col-clock = Контроль
lobby-col-type = Тип
lobby-col-colour = Цвет
lobby-col-action = Действие
lobby-cancel = Отменить
lobby-play = Играть
lobby-guest = Гость
lobby-you = (вы)
# Вызов одной строкой: «Башни, 5+3, На рейтинг, играет белыми».
lobby-seek-summary = { $variant }, { $clock }, { $type }, { $colour ->
        [white] играет белыми
        [black] играет чёрными
       *[other] цвет по жребию
    }
lobby-no-seeks = Открытых вызовов нет. Бросьте свой или воспользуйтесь быстрой игрой.
lobby-quick = Быстрая игра
lobby-quick-hint = Сыграйте с первым, кто ждёт с таким контролем, или дождитесь соперника.
lobby-clock-option = { $minutes } мин + { $increment } с
lobby-post-title = Новый вызов
lobby-post = Бросить вызов
lobby-rated-check = На рейтинг (сначала войдите)
lobby-open-seeks = Открытые вызовы
lobby-live = Сейчас играют

tournaments-title = Турниры – Башни
tournaments-none = Нет.
tournaments-open = Идёт набор
tournaments-running = Идут сейчас
tournaments-finished = Завершённые
tournaments-log-in = Войдите
# Идёт после ссылки «Войдите».
tournaments-log-in-to-make = { "" }, чтобы создать турнир или участвовать в нём.
tournament-title = { $name } – Башни
tournament-system = Система
tournament-system-round-robin = Круговая система
tournament-system-swiss = Швейцарская система
tournament-rounds-count =
    { $rounds ->
        [one] { $rounds } тур
        [few] { $rounds } тура
       *[many] { $rounds } туров
    }
tournament-micro = микроматчи
tournament-clock = { $minutes } мин + { $increment } с
tournament-no-clock = без часов
tournament-tiebreak-sb-short = Зон.
tournament-tiebreak-sb = Коэффициент Зоннеборна-Бергера
tournament-tiebreak-buchholz-short = Бух.
tournament-tiebreak-buchholz = Коэффициент Бухгольца
tournament-tiebreak-median-short = Мед.
tournament-tiebreak-median = Усечённый коэффициент Бухгольца
tournament-tiebreak-wins-short = Поб.
tournament-tiebreak-wins = Число побед
tournament-playing = идёт
tournament-status-open = Идёт набор: можно присоединиться.
tournament-status-running = Идёт { $round }-й тур из { $rounds }.
tournament-status-finished = Турнир завершён.
# $description: что это за турнир, «Башни, круговая система, 8 мин + 4 с».
tournament-item-meta = { $description } · участников: { $players } · организатор: { $creator }
tournament-made-by = { $description } · организатор: { $creator }
tournament-variant-bashni = Башни
tournament-variant-russian = Русские шашки
tournament-rounds = Число туров
tournament-micro-check = Микроматчи: по две партии на начало, выпавшее по жребию
tournament-new = Новый турнир
tournament-name = Название
tournament-create = Создать турнир
tournament-round = Тур { $round }
tournament-pairing = { $white } – { $black }
tournament-pairing-leg = { $white } – { $black } (партия { $leg })
tournament-bye = { $name }: пропуск тура (засчитана победа).
tournament-place = Место
tournament-player = Игрок
tournament-points = Очки
tournament-wins-draws-losses = В-Н-П
tournament-leave = Выйти
tournament-join = Участвовать
tournament-start = Начать
tournament-log-in-to-join = Войдите, чтобы участвовать
tournament-missing = Такого турнира нет
tournament-cannot-show = Страницу нельзя показать
tournament-players = Участники ({ $count })
tournament-standings = Положение
tournament-points-rule = Очки: { $win } за победу, { $draw } за ничью, { $loss } за поражение.
tournament-crosstable = Турнирная таблица
tournament-download = Скачать все партии (PDN)

ratings-rated = На рейтинг
ratings-casual = Без рейтинга
ratings-not-rated = Не на рейтинг ({ $reason })
# $white, $black: рейтинги после партии; $whiteDiff, $blackDiff: их изменения, «+12», «−12».
ratings-change = Белые { $white } ({ $whiteDiff }), чёрные { $black } ({ $blackDiff })
ratings-chart = Рейтинг после каждой партии
# $variant: название игры; $pace: blitz, rapid, classical или correspondence.
ratings-row-title = { $variant }, { $pace ->
        [blitz] блиц
        [rapid] рапид
        [classical] классика
       *[correspondence] по переписке
    }
ratings-games = ({ $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[many] { $games } партий
    })
ratings-title = Рейтинги
ratings-none = Рейтинговых партий пока нет.
ratings-provisional-hint = ? значит, что рейтинг ещё не устоялся (мало партий).
leaderboard-title = Рейтинг – Башни
leaderboard-player = Игрок
leaderboard-rating = Рейтинг
leaderboard-games = Партии
leaderboard-tab = { $variant }, { $pace ->
        [blitz] блиц
        [rapid] рапид
        [classical] классика
       *[correspondence] по переписке
    }
leaderboard-hint = Сначала игроки с устоявшимся рейтингом; знак ? отмечает рейтинг, который ещё не устоялся.

player-title = { $name } – Башни
player-col-game = Игра
player-col-won = Выиграно
player-col-drawn = Вничью
player-col-lost = Проиграно
player-log-out-everywhere = Выйти везде
player-log-out-everywhere-hint = Выйти на всех устройствах и во всех браузерах, где вы вошли:
player-delete-title = Удалить учётную запись
player-delete-hint = Это нельзя отменить. Ваши партии останутся, но будут показаны как партии удалённого игрока. Имя { $name } останется занятым, и никто другой не сможет его взять.
player-password = Ваш пароль
player-delete = Удалить мою учётную запись
player-your-account = Ваша учётная запись
# Добавляется к партии в списке игрока: каким цветом он играл.
player-played = , { $colour ->
        [white] за белых
        [black] за чёрных
       *[other] { $colour }
    }
player-no-games = Партий пока нет.
# $date: день, когда создана учётная запись.
player-since = На сайте с { $date }.
player-results = Результаты
player-results-hint = Партии против людей, доигранные до результата.
player-recent-games = Последние партии
player-missing = Такого игрока нет
player-missing-text = Игрока с таким именем нет.
player-cannot-show = Страницу нельзя показать

your-turn-title = Ваш ход
your-turn-none = Ни одна партия не ждёт вашего хода.
your-turn-with-clock = с часами
your-turn-against = Ваш ход, соперник: { $opponent }
your-turn-against-someone = Ваш ход
# $pace: «3 дня на ход» или «с часами»; $move: номер хода; $colour: цвет игрока.
your-turn-meta = { $variant }, { $pace }, ход { $move } ({ $colour ->
        [white] белые
        [black] чёрные
       *[other] { $colour }
    })
your-turn-until = До { $date }
